// Any other signed-in path (spec §2): the navigation only, an empty content area.
export default function EmptyShellPage() {
  return (
    <div className="empty-shell">
      <title>Porchlight</title>
    </div>
  );
}
