// The first link of a page, seen only when focused: it jumps past the navigation to the page's content (base.css).
export function SkipLink({ to }: { to: `#${string}` }) {
  return (
    <a className="skip-link" href={to}>
      Skip to content
    </a>
  );
}
