import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLog } from './request-log.ts';

async function withRoutes(...urls: string[]): Promise<RequestLog> {
  const log = new RequestLog();
  const app = Fastify();
  log.register(app);
  for (const url of urls) app.get(url, async () => '');
  await app.ready();
  return log;
}

describe('RequestLog.loggedUrl', () => {
  it("keeps the routes' words and UUIDs of a path, and masks every other segment", async () => {
    const log = await withRoutes('/v1/api/distributions/:distribution_id/leads/:lead_id', '/v1/api/vehicles/vin/:vin');
    const id = '0190F3A2-7C1B-7D4E-9A0B-1C2D3E4F5A6B';
    expect(log.loggedUrl(`/v1/api/distributions/${id}/leads/${id}`)).toBe(`/v1/api/distributions/${id}/leads/${id}`);
    expect(log.loggedUrl('/v1/api/vehicles/vin/WVWZZZ1JZXW000001')).toBe('/v1/api/vehicles/vin/*');
    expect(log.loggedUrl('/v1/api/distributions/john.doe@example.be/leads')).toBe('/v1/api/distributions/*/leads');
    expect(log.loggedUrl('/nowhere/Jan%20Peeters/')).toBe('/*/*/');
  });

  it('masks the values of a query but those that name no one, and names that are not ours', async () => {
    const log = await withRoutes('/app', '/app/export.csv');
    expect(log.loggedUrl('/app?q=Peeters&status=new&limit=20&sort=received')).toBe(
      '/app?q=*&status=new&limit=20&sort=received',
    );
    expect(log.loggedUrl('/app/export.csv?q=Kerkstraat+7&cursor=eyJ1IjoiMjAyNiJ9')).toBe(
      '/app/export.csv?q=*&cursor=*',
    );
    expect(log.loggedUrl('/app?external_ref=crm-42&flag&Jan.Peeters%40example.be=1')).toBe(
      '/app?external_ref=*&flag&*',
    );
  });

  it('serializes a request without headers and an error without the values PostgreSQL quotes', async () => {
    const log = await withRoutes('/app');
    const options = log.loggerOptions({ level: 'debug' }) as {
      level: string;
      serializers: { req: (value: unknown) => unknown; err: (value: unknown) => unknown };
    };
    expect(options.level).toBe('debug');
    const request = { method: 'GET', url: '/app?q=Peeters', host: 'x', ip: '10.0.0.1', headers: { cookie: 's' } };
    expect(options.serializers.req(request)).toEqual({
      method: 'GET',
      url: '/app?q=*',
      host: 'x',
      remoteAddress: '10.0.0.1',
      remotePort: undefined,
    });
    const error = Object.assign(new Error('duplicate key value violates unique constraint "parties_match_key"'), {
      detail: 'Key (match_key)=(jan@example.be|1980-02-03) already exists.',
      code: '23505',
    });
    const logged = options.serializers.err(error);
    expect(logged).toMatchObject({ message: error.message, code: '23505' });
    expect(JSON.stringify(logged)).not.toContain('jan@example.be');
    expect(log.loggerOptions(false)).toBe(false);
  });
});
