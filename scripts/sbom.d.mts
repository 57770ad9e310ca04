// Types of sbom.mjs for the server package's test (src/licences.test.ts).
export interface Bom {
  specVersion?: string;
  metadata?: { component?: { 'bom-ref': string } };
  components: Array<{ 'bom-ref': string; [key: string]: unknown }>;
  dependencies?: Array<{ ref: string; dependsOn?: string[] }>;
}
export function productionBom(bom: Bom, production: Set<string>): Bom;
