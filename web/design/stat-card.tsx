// A figure card: an icon, a big value and its label (dashboard claims, AI usage totals).
import type { ComponentType } from "react";

export function StatCard({ icon: Icon, value, label }: { icon: ComponentType; value: string; label: string }) {
  return (
    <div className="card stat">
      <span className="stat-icon">
        <Icon />
      </span>
      <div>
        <p className="stat-value">{value}</p>
        <p className="stat-label">{label}</p>
      </div>
    </div>
  );
}
