export * from './app';
export * from './errors';
export * from './identity';
export * from './db';
export * from './config';
export * from './project-bootstrap';
export * from './project-pools';
export * from './postgres';
