import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { demoCurl } from './demo-data.service.ts';

/** The arguments a POSIX shell hands to curl for the printed line. */
function shellWords(line: string): string[] {
  const result = spawnSync('sh', ['-c', line.replace(/^curl /, `printf '%s\\n' `)], { encoding: 'utf8' });
  return result.stdout.trimEnd().split('\n');
}

describe('demoCurl', () => {
  it('is one line a shell reads back as the intended request, even with quotes in the URL', () => {
    const token = { distribution_id: '00000000-0000-4000-8000-00000000de70', token: 'li_abc-DEF_123' };
    const line = demoCurl("http://localhost:8080/it's", token);
    expect(line).not.toContain('\n');
    const words = shellWords(line);
    expect(words).toContain(
      "http://localhost:8080/it's/v1/api/distributions/00000000-0000-4000-8000-00000000de70/leads/customers",
    );
    expect(words).toContain('Authorization: apikey li_abc-DEF_123');
    const body = JSON.parse(words[words.indexOf('-d') + 1]!);
    expect(body.prospect).toEqual({ first_name: 'Jan', last_name: 'Peeters' });
  });
});
