// Placeholder until the request form lands (issues 4 and 5).
export default function FormPage() {
  return null;
}
