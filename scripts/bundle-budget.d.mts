// Types of bundle-budget.mjs for the web package's unit test (src/bundleBudget.test.ts).
export interface Budget {
  page: string;
  entries: string[];
  goalKb: number;
  limitKb: number;
}
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export interface BudgetResult extends Budget {
  files: string[];
  kb: number;
  withinLimit: boolean;
  goalMet: boolean;
}
export const BUDGETS: Budget[];
export function wireSize(distDir: string, file: string): number;
export function pageFiles(manifest: Manifest, entries: string[]): string[];
export function checkBudgets(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  budgets?: Budget[],
): BudgetResult[];
