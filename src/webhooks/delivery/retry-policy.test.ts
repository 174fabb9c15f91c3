import { describe, expect, it } from 'vitest';
import { decide } from './retry-policy.ts';
import type { SendResult } from './webhook.sender.ts';

const now = new Date('2026-11-20T10:00:00.000Z');
const schedule = [5_000, 300_000, 1_800_000];
const answer = (statusCode: number | null, extra: Partial<SendResult> = {}): SendResult => ({
  statusCode,
  error: null,
  refused: false,
  retryAfterMs: null,
  durationMs: 3,
  ...extra,
});
const at = (ms: number) => new Date(now.getTime() + ms);

describe('decide', () => {
  it('delivers on any 2xx', () => {
    for (const code of [200, 202, 204, 299])
      expect(decide(answer(code), 1, schedule, now)).toMatchObject({
        outcome: 'delivered',
        status: 'delivered',
        nextAttemptAt: null,
      });
  });

  it('retries other answers and no answer after the wait of the schedule, then fails', () => {
    expect(decide(answer(500), 1, schedule, now)).toEqual({
      outcome: 'retry',
      status: 'pending',
      nextAttemptAt: at(5_000),
      stopUrl: false,
    });
    expect(decide(answer(null, { error: 'ECONNREFUSED' }), 2, schedule, now).nextAttemptAt).toEqual(at(300_000));
    expect(decide(answer(302), 3, schedule, now).nextAttemptAt).toEqual(at(1_800_000));
    expect(decide(answer(500), 4, schedule, now)).toEqual({
      outcome: 'failed',
      status: 'failed',
      nextAttemptAt: null,
      stopUrl: false,
    });
  });

  it('waits at least as long as Retry-After asks on 429 and 503, and no more than a day', () => {
    expect(decide(answer(429, { retryAfterMs: 60_000 }), 1, schedule, now).nextAttemptAt).toEqual(at(60_000));
    expect(decide(answer(503, { retryAfterMs: 1_000 }), 1, schedule, now).nextAttemptAt).toEqual(at(5_000));
    expect(decide(answer(503, { retryAfterMs: 30 * 86_400_000 }), 1, schedule, now).nextAttemptAt).toEqual(
      at(86_400_000),
    );
    expect(decide(answer(500, { retryAfterMs: 60_000 }), 1, schedule, now).nextAttemptAt).toEqual(at(5_000));
  });

  it('stops the URL on 410 Gone and gives up at once on a refused address', () => {
    expect(decide(answer(410), 1, schedule, now)).toEqual({
      outcome: 'gone',
      status: 'failed',
      nextAttemptAt: null,
      stopUrl: true,
    });
    expect(decide(answer(null, { refused: true, error: 'refused: ...' }), 1, schedule, now)).toMatchObject({
      outcome: 'refused',
      status: 'failed',
    });
  });
});
