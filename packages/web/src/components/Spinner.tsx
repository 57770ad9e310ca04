/** A spinner with visible text, announced politely (role=status). */
export function Spinner({ label, inline = false }: { label: string; inline?: boolean }) {
  return (
    <div role="status" className={inline ? 'spinner spinner--inline' : 'spinner'}>
      <span className="spinner__circle" aria-hidden="true" />
      <span className="spinner__label">{label}</span>
    </div>
  );
}
