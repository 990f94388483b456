// The business category select: the 21 categories of the spec, with an empty "Select a category" choice.
import { CATEGORIES } from "../../worker/domain/categories";
import { Options, SelectField } from "./form-fields";

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
  return (
    <SelectField label={label} name={name} value={value} onChange={onChange} disabled={disabled} wide={false}>
      <option value="">Select a category</option>
      <Options values={CATEGORIES} />
    </SelectField>
  );
}
