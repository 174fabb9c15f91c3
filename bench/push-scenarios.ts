// The push scenarios every comparison runs, by the letters docs/benchmarks.md gives them.
import type { Scenario } from './payloads.ts';
import type { Feature } from './server-code.ts';

export type ScenarioKey = 'a' | 'b' | 'c' | 'd' | 'e' | 'keyed' | 'batch';

export interface PushScenario {
  readonly key: ScenarioKey | 'list';
  readonly scenario: Scenario;
  readonly label: string;
  /** What the code measured must have for it (the others skip it and say why). */
  readonly needs?: Feature;
  /** Each request an Idempotency-Key of its own, or a batch of this many leads at BATCH_CONNECTIONS. */
  readonly request?:
    | { readonly idempotency: 'fresh' }
    | { readonly batchSize: number }
    | { readonly merges: 'keeping-words' };
}

/** Batches are few and large: 8 connections keep the writer busy (docs/benchmarks.md, batches). */
export const BATCH_CONNECTIONS = 8;

export const PUSH_SCENARIOS: readonly PushScenario[] = [
  { key: 'a', scenario: 'minimal', label: '(a) minimal push, new lead' },
  { key: 'b', scenario: 'full', label: '(b) full push, new lead' },
  { key: 'c', scenario: 'merge', label: '(c) merge into existing lead' },
  { key: 'd', scenario: 'webhook', label: '(d) minimal push with a callback', needs: 'webhooks' },
  {
    key: 'e',
    scenario: 'merge',
    label: '(e) merge that keeps the words (a re-sync)',
    request: { merges: 'keeping-words' },
  },
  {
    key: 'keyed',
    scenario: 'minimal',
    label: '(a) with an Idempotency-Key',
    needs: 'idempotency-key',
    request: { idempotency: 'fresh' },
  },
  {
    key: 'batch',
    scenario: 'minimal',
    label: 'batch of 100 minimal leads',
    needs: 'batch',
    request: { batchSize: 100 },
  },
];

/** What BENCH_ONLY=push runs unless BENCH_SCENARIOS says otherwise. */
export const DEFAULT_SCENARIOS: readonly ScenarioKey[] = ['a', 'b', 'c', 'd'];

/** Not a push, but measured beside them in the full run: the change listing's first page of 100 leads. */
export const LISTING: PushScenario = {
  key: 'list',
  scenario: 'listing',
  label: 'GET .../leads, a page of 100 leads',
  needs: 'listing',
};

/** Leads one request of the scenario carries: a batch's size, or one. */
export const leadsPerRequest = (scenario: PushScenario): number =>
  scenario.request && 'batchSize' in scenario.request ? scenario.request.batchSize : 1;
