import { loadExpressionParser } from '../src/sql/ddl/expression';

// The pure DDL builders check user expressions with Postgres's parser, as the app does once it is ready.
beforeAll(loadExpressionParser);
