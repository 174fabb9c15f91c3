/** A party merged into another (docs/api.md, "Merging two parties"): ids only. */
export interface MergedPartyTable {
  party_id: string;
  lead_id: string;
  distribution_id: string;
  /** The survivor, moved along when the survivor is merged in turn. */
  merged_into_party_id: string;
  merged_into_lead_id: string;
  merged_at: string;
  /** `token:<id>` or `user:<id>`, as the push log names its caller. */
  merged_by: string;
}
