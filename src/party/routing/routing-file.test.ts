import { describe, expect, it } from 'vitest';
import { readRoutingFile } from './routing-file.ts';

const user = '6b1f0a52-1c3e-4d8a-9f3b-2a7c5e9d1b40';

describe('readRoutingFile', () => {
  it('reads the documented file', () => {
    const file = {
      rules: [
        {
          when: { origin: ['web'], kind: 'CUSTOMER', postcodes: ['1000-1299', '9000'], language: ['nl'] },
          assign: { round_robin: [user, '1b1f0a52-1c3e-4d8a-9f3b-2a7c5e9d1b41'] },
        },
        { when: {}, assign: { user } },
      ],
    };
    expect(readRoutingFile(JSON.stringify(file))).toEqual({ rules: file });
  });

  it('refuses each malformed rule with its path', () => {
    const reading = readRoutingFile(
      JSON.stringify({
        rules: [
          { when: { kind: 'PERSON', colour: 'red' }, assign: { user } },
          { when: { postcodes: ['12a0-1299', '1300-1200'], language: ['NL'] }, assign: { user: 'jan' } },
          { when: {}, assign: {} },
          { assign: { user, round_robin: [user] } },
        ],
      }),
    );
    expect(reading.problems).toEqual([
      { path: '/rules/0/when', message: 'unknown key "colour"' },
      { path: '/rules/0/when/kind', message: 'must be one of CUSTOMER, COMPANY' },
      {
        path: '/rules/1/when/postcodes/0',
        message: 'must be a postcode (1000) or an inclusive range of postcodes (1000-1299)',
      },
      { path: '/rules/1/when/language/0', message: 'must be a two-letter language code such as nl' },
      { path: '/rules/1/assign/user', message: 'must be a user id (a UUID)' },
      { path: '/rules/3', message: '"when" required' },
    ]);
  });

  it('refuses what the schema cannot say: both or neither assignment, a range ending before it starts', () => {
    const reading = readRoutingFile(
      JSON.stringify({
        rules: [
          { when: { postcodes: ['1300-1200'] }, assign: { user } },
          { when: {}, assign: {} },
          { when: {}, assign: { user, round_robin: [user] } },
        ],
      }),
    );
    expect(reading.problems).toEqual([
      { path: '/rules/0/when/postcodes/0', message: 'a range must not end before it starts' },
      { path: '/rules/1/assign', message: 'give either "user" or "round_robin"' },
      { path: '/rules/2/assign', message: 'give either "user" or "round_robin"' },
    ]);
  });

  it('refuses text that is not JSON, and a file without rules', () => {
    expect(readRoutingFile('{"rules": [').problems?.[0]?.path).toBe('/');
    expect(readRoutingFile('{}').problems).toEqual([{ path: '/', message: '"rules" required' }]);
  });
});
