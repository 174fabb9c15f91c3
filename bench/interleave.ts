// Figures of one scenario on several codes (BENCH_BASELINE's revision, then this checkout),
// taken in turn: baseline, current, baseline, current, ... BENCH_ROUNDS figures each, every
// figure on a fresh database and a fresh server. On a shared machine a figure alone says
// little; medians of rounds taken side by side, and their ratio, say more. A code that
// lacks what the scenario needs is skipped with the reason; a baseline whose server fails
// the scenario is reported as such, while a failure of this checkout stops the run.
import type { BenchDialect } from './database.ts';
import { log, type Measurement, measure } from './measure.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './processes.ts';
import type { PushScenario } from './push-scenarios.ts';
import { measureLeads } from './push-run.ts';
import type { ServerCode } from './server-code.ts';
import { measureWebhooks } from './webhooks.ts';

export interface CodeFigures {
  readonly code: ServerCode;
  readonly samples: Measurement[];
  /** Why there is no figure: the feature came later, or the server failed the scenario. */
  missing?: string;
}

export interface ScenarioRounds {
  readonly dialect: BenchDialect;
  readonly scenario: PushScenario;
  /** In the order measured: the baseline first. */
  readonly codes: readonly CodeFigures[];
}

export async function interleave(
  dialect: BenchDialect,
  scenario: PushScenario,
  codes: readonly ServerCode[],
  options: BenchOptions,
  pinning: Pinning,
): Promise<ScenarioRounds> {
  const figures: CodeFigures[] = codes.map((code) => {
    const missing = scenario.needs && code.lacks(scenario.needs);
    if (missing) log(`${dialect} ${scenario.label}: skipped at ${code.label}: ${missing}`);
    return { code, samples: [], ...(missing && { missing }) };
  });
  for (let round = 1; round <= options.rounds; round++) {
    for (const figure of figures) {
      if (figure.missing) continue;
      const { code } = figure;
      const label = `${dialect} ${scenario.label} at ${code.label}${options.rounds > 1 ? `, round ${round} of ${options.rounds}` : ''}`;
      try {
        figure.samples.push(
          await measure(label, options, () =>
            scenario.scenario === 'webhook'
              ? measureWebhooks(dialect, options, pinning, code)
              : measureLeads(
                  {
                    label: scenario.label,
                    dialect,
                    scenario: scenario.scenario,
                    code,
                    ...(scenario.request && { request: scenario.request }),
                  },
                  options,
                  pinning,
                ),
          ),
        );
      } catch (error) {
        if (code.revision === undefined) throw error;
        figure.missing = `its server failed the scenario: ${(error as Error).message.split('\n')[0]}`;
        log(`${label}: ${figure.missing}`);
      }
    }
  }
  return { dialect, scenario, codes: figures };
}

/** The middle value (the lower of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The figure whose req/s is the median of the rounds: the one a single-figure table shows. */
export function medianFigure(figures: CodeFigures): Measurement | undefined {
  const rate = median(figures.samples.map((m) => m.load.requestsPerSecond));
  return figures.samples.find((m) => m.load.requestsPerSecond === rate);
}
