// Pushing many leads in one request (docs/design.md section 14): each item is exactly the
// single push of its kind (schema, rules, matching, merge, push log, webhooks), in its own
// transaction, in item order; a refused item is its error body in the answer and writes
// nothing. This use case owns no transaction itself: LeadPushService runs one per item.
import { ApiError, ValidationError, type Problem } from '../../errors.ts';
import type { BodyRules, Validate } from '../../http/validation.ts';
import type { Caller } from '../../auth/caller.ts';
import type { ErrorBodyJson } from '../../http/error-body.ts';
import type { LeadPushService, PushResult } from '../push/lead-push.service.ts';
import { CompanyLeadBody, CustomerLeadBody, type LeadBody } from '../model/lead.schema.ts';
import type { BatchItem, LeadBatchItemResult, LeadBatchResult } from './lead-batch.schema.ts';
import type { PartyType } from '../model/party.table.ts';
import { checkPayloadRules } from '../model/payload-rules.ts';

export interface BatchCommand {
  readonly distributionId: string;
  readonly items: readonly BatchItem[];
  /** Problems the body parser found, by item, relative to it (lead-batch.schema.ts). */
  readonly parserProblems: ReadonlyMap<number, Problem[]>;
  /** Each item's text exactly as sent, for the push log; undefined: each item's parsed JSON. */
  readonly itemTexts: readonly string[] | undefined;
  readonly caller: Caller;
  /** Renders a refused item's error as the single push would have answered it. */
  readonly renderError: (error: ApiError) => ErrorBodyJson;
}

export interface LeadBatchDependencies {
  readonly leadPush: LeadPushService;
  /** Compiles a push schema with the push's rules, as its route's validator does. */
  readonly compileBody: (schema: object, rules: BodyRules) => Validate;
  /**
   * True on SQLite: every item is handed to the one writer at once, which runs them in the
   * order handed (its group commit, db/transaction-runner.ts), so they share commits. False
   * on PostgreSQL, whose transactions run side by side: each item waits for the one before.
   */
  readonly orderedWriter: boolean;
  /** Called per accepted item, as the single push route counts it. */
  readonly onPushed?: (result: PushResult) => void;
}

export class LeadBatchService {
  readonly #deps: LeadBatchDependencies;
  readonly #validators: Readonly<Record<PartyType, Validate>>;

  constructor(deps: LeadBatchDependencies) {
    this.#deps = deps;
    this.#validators = {
      CUSTOMER: deps.compileBody(CustomerLeadBody, checkPayloadRules),
      COMPANY: deps.compileBody(CompanyLeadBody, checkPayloadRules),
    };
  }

  async push(command: BatchCommand): Promise<LeadBatchResult> {
    // On SQLite the items are handed to the writer one after another in this tick: nothing
    // of a push may wait before its write, or a later item would overtake it.
    if (this.#deps.orderedWriter) await this.#deps.leadPush.prepare();
    const pending: Array<Promise<LeadBatchItemResult>> = [];
    for (const [index, item] of command.items.entries()) {
      const result = this.#pushItem(command, index, item);
      pending.push(result);
      if (!this.#deps.orderedWriter) await result;
    }
    const results = await Promise.all(pending);
    const count = (status: number) => results.filter((result) => result.status === status).length;
    const created = count(201);
    const updated = count(200);
    return { results, created, updated, failed: results.length - created - updated };
  }

  async #pushItem(command: BatchCommand, index: number, item: BatchItem): Promise<LeadBatchItemResult> {
    const { leadPush, onPushed } = this.#deps;
    const invalid = this.#validate(command, index, item);
    if (invalid) {
      // As the single push route does: the references that certainly dangle join the 422.
      return {
        index,
        status: 422,
        error: asResultError(command.renderError(await leadPush.refusal(invalid, item.body))),
      };
    }
    try {
      const result = await leadPush.push({
        distributionId: command.distributionId,
        kind: item.kind,
        body: item.body as LeadBody,
        // The push log keeps each item as sent, its `type` included (docs/api.md, "Pushing many leads at once"), not the bytes of the whole batch.
        rawBody: command.itemTexts?.[index] ?? JSON.stringify(item.body),
        caller: command.caller,
      });
      onPushed?.(result);
      return { index, status: result.created ? 201 : 200, lead: result.lead };
    } catch (error) {
      // A refusal a client can cause is the item's answer; anything else fails the request.
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return { index, status: error.status, error: asResultError(command.renderError(error)) };
    }
  }

  /** The single push's validation: its schema and rules, with the parser's problems first. */
  #validate(command: BatchCommand, index: number, item: BatchItem): ValidationError | undefined {
    const parsed = command.parserProblems.get(index) ?? [];
    const verdict = this.#validators[item.kind](item.body);
    const problems = verdict === true ? [] : verdict.error.problems;
    if (parsed.length === 0 && problems.length === 0) return undefined;
    const targets = new Set(parsed.map((problem) => problem.target));
    return new ValidationError(
      [...parsed, ...problems.filter((problem) => !targets.has(problem.target))],
      item.kind === 'CUSTOMER' ? 'CustomerLead' : 'CompanyLead',
    );
  }
}

/** The rendered body, typed as the answer's schema types it (mutable lists). */
function asResultError(body: ErrorBodyJson): LeadBatchItemResult['error'] {
  return body as LeadBatchItemResult['error'];
}
