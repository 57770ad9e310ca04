// Placeholder until the validity-check screen lands (issue 3).
export default function ValidityPage() {
  return null;
}
