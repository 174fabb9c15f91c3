export interface DistributionTable {
  id: string;
  name: string;
  created_at: string;
}
