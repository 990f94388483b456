// The search box of the admin lists: a magnifier icon inside a labelled search input.
import { SearchIcon } from "./icons";

export function SearchField({
  placeholder,
  label,
  value,
  onChange,
}: {
  placeholder: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="search-field">
      <SearchIcon size="sm" />
      <input
        type="search"
        className="input"
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
