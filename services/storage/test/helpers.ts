import { setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';

export { asRole as as, contractValidator } from '@dash/service-kit/dist/testing';
export type Project = TestProject;

/** A fresh, bootstrapped project database reachable as ref `default`, and a storage app for it. */
export const setupProject = (): Promise<Project> => setupTestProject('storage', (pools) => buildApp({ secret: TEST_SECRET, pools }));
