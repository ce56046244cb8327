// Every scenario `npm run bench` runs, in table order. Another file's scenarios join with one line
// (see bench/scenario.ts for the interface): e.g. `...consoleScenarios` from './console'.
import { apiScenarios } from './api-scenarios';
import type { Scenario } from './scenario';

export const SCENARIOS: Scenario[] = [...apiScenarios];
