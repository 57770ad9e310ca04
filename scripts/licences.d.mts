// Types of licences.mjs for the server package's test (src/licences.test.ts).
export interface ProductionPackage {
  name: string;
  version: string;
  licence: string;
}
export const ALLOWED: string[];
export const STATED_ELSEWHERE: Record<string, string>;
export function allowed(expression: string): boolean;
export function productionPackages(lockPath: string): ProductionPackage[];
export function licenceReport(lockPath: string): {
  packages: ProductionPackage[];
  byLicence: Map<string, ProductionPackage[]>;
  refused: ProductionPackage[];
};
