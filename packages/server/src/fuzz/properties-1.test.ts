import { fuzzSuite } from './suite.js';

/** Part 1 of the property tests from the OpenAPI document (suite.ts). */
await fuzzSuite(0);
