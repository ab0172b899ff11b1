import { fuzzSuite } from './suite.js';

/** Part 2 of the property tests from the OpenAPI document (suite.ts). */
await fuzzSuite(1);
