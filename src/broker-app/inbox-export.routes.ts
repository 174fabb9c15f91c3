// The inbox's CSV export (docs/design.md section 13, docs/broker-app.md, "Broker app"): the
// filtered list as a spreadsheet opens it, streamed page by page in the inbox's own keyset
// order, so memory stays flat however many leads there are (csv-stringify writes the rows,
// RFC 4180). Cells a spreadsheet would run as a formula (=, +, -, @ first) get a leading
// apostrophe.
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyPluginAsync } from 'fastify';
import { brusselsDay } from '../brussels-days.ts';
import { inboxFilter, parseInboxParams } from './inbox-filter.ts';
import { inbox, type LeadServices, userNames } from './lead-data.ts';
import { pageContext } from './pages/page-context.ts';
import { displayName } from './pages/field-values.ts';
import type { Translate } from './texts/index.ts';

/** Leads read per statement: large enough to amortise a page, small enough to stay flat. */
export const EXPORT_PAGE_SIZE = 500;

const FORMULA = /^[=+\-@\t\r]/;

export const inboxExportRoutes: FastifyPluginAsync<{ services: LeadServices }> = async (app, { services }) => {
  app.get('/export.csv', async (request, reply) => {
    const params = parseInboxParams(request.query);
    const user = request.appSession!.user;
    const { t } = pageContext(request, request.appSession);
    const filter = {
      ...inboxFilter(params, user.distribution_id, user.id, brusselsDay(services.clock.now())),
      sort: params.sort,
      direction: params.direction,
    };
    const names = await userNames(services, user.distribution_id);
    async function* rows() {
      yield header(t);
      let before: Awaited<ReturnType<typeof inbox>>['next'];
      do {
        const page = await inbox(services, { ...filter, ...(before && { before }), limit: EXPORT_PAGE_SIZE });
        for (const item of page.items) {
          const address = (item.fields.address ?? {}) as Record<string, unknown>;
          yield [
            item.leadId,
            item.partyId,
            displayName(item.type, item.fields),
            t(item.type === 'COMPANY' ? 'kindCOMPANY' : 'kindCUSTOMER'),
            item.fields.email,
            item.fields.telephonenr,
            address.zipcode,
            address.city,
            t(`leadStatus_${item.status}`),
            item.lostReason,
            item.assigneeId === null ? '' : (names.get(item.assigneeId) ?? item.assigneeId),
            item.followUpOn,
            item.origin,
            item.refs.map((ref) => (ref.company ? `${ref.company}: ${ref.ref}` : ref.ref)).join(', '),
            item.createdAt,
            item.updatedAt,
          ].map(cell);
        }
        before = page.next;
      } while (before);
    }
    const csv = stringify({ bom: true });
    // A failed read ends the download (an error destroys the stream) instead of hanging it.
    pipeline(Readable.from(rows()), csv, (error) => {
      if (error) request.log.error({ err: error }, 'CSV export failed');
    });
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leads-${day}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(csv);
  });
};

function header(t: Translate): string[] {
  return [
    'lead_id',
    'party_id',
    t('columnName'),
    t('columnKind'),
    t('field_email'),
    t('field_telephonenr'),
    t('field_zipcode'),
    t('field_city'),
    t('columnStatus'),
    t('lostReason'),
    t('assignee'),
    t('followUpOn'),
    t('columnOrigin'),
    t('columnRefs'),
    t('createdAt'),
    t('columnChanged'),
  ];
}

function cell(value: unknown): string {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  return FORMULA.test(text) ? `'${text}` : text;
}
