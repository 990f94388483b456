// The business category select: the 21 categories of the spec, with an empty "Select a category" choice.
import { useId } from "react";
import { CATEGORIES } from "../../worker/domain/categories";

export function CategorySelect({
  label,
  name,
  value,
  onChange,
  disabled,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} className="input" value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">Select a category</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {category}
          </option>
        ))}
      </select>
    </div>
  );
}
