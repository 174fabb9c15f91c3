// Both databases look for a query's streets before their addresses (src/reference/addresses/:
// street-words.ts, postgres-streets.repository.ts, sqlite-streets.repository.ts); the
// answers must be those of the addresses' own index: a word a box or house number holds ("a", "12") may be in the
// address only, or in its street's name, and pages run in the same order.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from './support/cli.ts';
import { callApi } from './support/api-client.ts';
import { createTenant, startTestServer, type Tenant, type TestServer } from './support/test-server.ts';
import { bestCsv, tempDir } from './support/reference-files.ts';

let server: TestServer;
let reader: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  reader = await createTenant(server.database.handle, ['address:read']);
  const addresses = path.join(tempDir(), 'openaddress-bebru.csv');
  fs.writeFileSync(
    addresses,
    bestCsv([
      [
        '1',
        '12',
        'A',
        '1000',
        'Jan Van Ruysbroeckstraat',
        'Rue Jan Van Ruysbroeck',
        '',
        'Brussel',
        'Bruxelles',
        'current',
      ],
      ['2', '5', '', '1000', 'Kerkstraat', 'Rue de l’Église', '', 'Brussel', 'Bruxelles', 'current'],
      ['3', '7', '', '1000', 'A. Ruysbroeckplein', 'Place A. Ruysbroeck', '', 'Brussel', 'Bruxelles', 'current'],
      [
        '4',
        '14',
        '',
        '1000',
        'Jan Van Ruysbroeckstraat',
        'Rue Jan Van Ruysbroeck',
        '',
        'Brussel',
        'Bruxelles',
        'current',
      ],
      [
        '5',
        '3',
        '',
        '1040',
        'Jan Van Ruysbroeckstraat',
        'Rue Jan Van Ruysbroeck',
        '',
        'Etterbeek',
        'Etterbeek',
        'current',
      ],
      ['6', '12', '', '1050', 'Jan Van Eyckstraat', 'Rue Jan Van Eyck', '', 'Elsene', 'Ixelles', 'current'],
      ['7', '9', 'A', '1050', 'Jan Van Eyckstraat', 'Rue Jan Van Eyck', '', 'Elsene', 'Ixelles', 'current'],
      ['8', '3', '', '1000', '', 'Rue du 12 Juillet', '', 'Brussel', 'Bruxelles', 'current'],
      ['9', '120', '', '1000', '', 'Rue du 12 Juillet', '', 'Brussel', 'Bruxelles', 'current'],
      ['10', '12', '', '1000', 'Kerkstraat', 'Rue de l’Église', '', 'Brussel', 'Bruxelles', 'current'],
      ['11', '12', 'B', '1040', 'Kerkstraat', 'Rue de l’Église', '', 'Etterbeek', 'Etterbeek', 'current'],
    ]),
  );
  await cliJson(server.database.env, ['data', 'import', 'addresses', addresses]);
});
afterAll(() => server.close());

const ids = async (query: string) => {
  const { body } = await callApi(server, reader, 'GET', `/addresses?${query}`);
  return { ids: body.items.map((a: { id: string }) => a.id), next: body.next as string | null };
};

describe('address search by street, then address', () => {
  it('finds a word a box number holds in the address, a street word in the street', async () => {
    // "a": box A of 1 and 7, a street word of 3.
    expect((await ids('q=ruysbroeck%20a')).ids).toEqual(['1', '3']);
    expect((await ids('q=jan%20van%20a')).ids).toEqual(['1', '7']);
  });

  it('finds a house number as a word of the address, whichever street', async () => {
    expect((await ids('q=jan%20van%2012')).ids).toEqual(['1', '6']);
  });

  it('finds a number in the street name as in a house number', async () => {
    // "12": the name of 8 and 9, the house number of 1, 6, 10 and 11.
    expect((await ids('q=juillet%2012')).ids).toEqual(['8', '9']);
    expect((await ids('q=rue%2012')).ids).toEqual(['1', '6', '8', '9', '10', '11']);
    // "3" whole: 5 and 8 only; typed on as "120", only 9.
    expect((await ids('q=rue%203')).ids).toEqual(['5', '8']);
    expect((await ids('q=juillet%20120')).ids).toEqual(['9']);
    // The number before the last word, as a form sends "street number town": whole in every tier.
    expect((await ids('q=12%20juillet')).ids).toEqual(['8', '9']);
    expect((await ids('q=rue%203%20brux')).ids).toEqual(['8']);
    expect((await ids('q=kerkstraat%2012%20brussel')).ids).toEqual(['10']);
    expect((await ids('q=jan%20van%2012%20elsene')).ids).toEqual(['6']);
    expect((await ids('q=ruysbroeck%20a%20bruxelles')).ids).toEqual(['1', '3']);
  });

  it('keeps the postcode and municipality filters, and a number being typed', async () => {
    expect((await ids('q=kerkstraat%2012&zipcode=1040')).ids).toEqual(['11']);
    expect((await ids('q=kerkstraat%2012&municipality=brussel')).ids).toEqual(['10']);
    expect((await ids('q=kerkstraat%2012%20b')).ids).toEqual(['11', '10']);
    // "1" being typed: house numbers 12 (10, 11) and the postcode 1000 (2), in key order.
    expect((await ids('q=kerkstraat%201')).ids).toEqual(['2', '10', '11']);
    expect((await ids('q=eglise%205')).ids).toEqual(['2']);
  });

  it('ranks the addresses of several streets in key order, page after page', async () => {
    const first = await ids('q=rue%20jan%20van&limit=2');
    expect(first.ids).toEqual(['1', '4']);
    const second = await ids(`${first.next!.split('?')[1]}`);
    expect(second.ids).toEqual(['5', '6']);
    expect((await ids(`${second.next!.split('?')[1]}`)).ids).toEqual(['7']);
    // Typing: the last word a prefix.
    expect((await ids('q=rue%20jan%20van%20ruys')).ids).toEqual(['1', '4', '5']);
    expect((await ids('q=jan%20van%20ey&zipcode=1050')).ids).toEqual(['6', '7']);
  });
});
