/**
 * A field whose control is still loading, drawn as the control will be (a label above a disabled button), so
 * nothing moves when the control arrives.
 */
export function WaitingField({
  label,
  value,
  className,
}: {
  label: string;
  value: string;
  className: string;
}) {
  return (
    <div className={`field ${className}`}>
      <span className="field__label">{label}</span>
      <button type="button" className="menu-button__button" disabled>
        {value}
      </button>
    </div>
  );
}
