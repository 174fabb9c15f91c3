// What a merge changed, as rows: the merge (merge.ts, merge-patch.ts) computes it without a
// database, the repository (changeset.repository.ts) applies it in batched statements, one
// per table touched however many cars, policies or coverages, and nothing else decides
// what gets written. An empty changeset writes nothing but the push log.
import type {
  Coverage,
  ExternalRef,
  InsurancePolicy,
  LeadAggregate,
  PolicyPackage,
  RiskObject,
  RiskObjectRevision,
} from '../model/party.aggregate.ts';
import type { DuplicateKey } from '../duplicates/duplicate-keys.ts';

export interface Changeset {
  /**
   * The party and lead rows: 'insert' for a new lead; 'update' when anything of the lead
   * changed (its version goes up by one, its updated_at is the merge's time); undefined
   * when nothing did.
   */
  readonly head: 'insert' | 'update' | undefined;
  /** External refs added to the party (rule 6: never removed by a push). */
  readonly partyRefs: readonly ExternalRef[];
  /** Callback URLs added to the party. */
  readonly callbacks: readonly string[];
  readonly riskObjects: {
    readonly insert: readonly RiskObject[];
    /** Objects whose current revision, VIN or updated_at changed. */
    readonly update: readonly RiskObject[];
    /** Updated objects that give up a VIN they held: another row of this write may take it. */
    readonly releaseVins: readonly string[];
    /** Objects a party update left out: marked removed, their revisions kept. */
    readonly remove: readonly RiskObject[];
  };
  /** New revisions: the first of each new object and the next of each revised one (rule 7). */
  readonly revisions: readonly { readonly riskObjectId: string; readonly revision: RiskObjectRevision }[];
  readonly packages: { readonly insert: readonly PolicyPackage[]; readonly update: readonly PolicyPackage[] };
  readonly policies: {
    readonly insert: readonly InsurancePolicy[];
    readonly update: readonly InsurancePolicy[];
    /** Updated policies that give up an insurance company + policy number they held. */
    readonly releaseNumbers: readonly string[];
  };
  /** External refs added to policies, new policies' refs included. */
  readonly policyRefs: readonly { readonly policyId: string; readonly ref: ExternalRef; readonly at: string }[];
  readonly coverages: {
    /** Stored policies whose coverages a push replaced (rule 8): their old rows go. */
    readonly deleteFor: readonly string[];
    readonly insert: readonly { readonly policyId: string; readonly position: number; readonly coverage: Coverage }[];
  };
  /**
   * The party's keys as a possible duplicate (duplicates/duplicate-keys.ts), all of them,
   * when the write changed any (they replace the stored ones); undefined when it changed none.
   */
  readonly duplicateKeys?: readonly DuplicateKey[];
  /**
   * For a head update: whether the lead's indexed `origin` and `sort_name` take new values.
   * SQLite rewrites the index entries of every column an UPDATE sets, whatever its value, so
   * an unchanged one is left out (about 5 µs an index a merge, measured). Undefined: both are set.
   */
  readonly leadIndexed?: { readonly origin: boolean; readonly sortName: boolean };
}

/** What a merge returns: the new aggregate and the changeset that turns the stored one into it. */
export interface MergeResult {
  readonly lead: LeadAggregate;
  readonly changes: Changeset;
}
