// The Social Plan's month: a Monday-first calendar whose posts can be dragged to another day (or moved a day at a
// time with the Earlier/Later buttons, the keyboard's way), and the same posts as a list. Each post opens in the
// generator for its network.
import { useState, type DragEvent } from "react";
import { Link } from "react-router";
import { addDays } from "../../../worker/features/content/rules/content";
import { NETWORK_LABELS } from "../../../worker/features/content/rules/length";
import { daysInMonth, generatorLink, type PlanDay, type SocialPlan } from "../../../worker/features/content/rules/social-plan";
import { formatDay } from "../../lib/format-date";
import { Button } from "../../design/button";
import { TableHead } from "../../design/table-head";
import "./content.css";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

type Props = { plan: SocialPlan; view: "month" | "list"; readOnly: boolean; onMove: (dayId: string, date: string) => void };

/** The month's dates in weeks (Monday first), with blanks before the 1st and after the last day. */
function weeks(month: string): (string | null)[][] {
  const offset = (new Date(`${month}-01T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array(offset).fill(null);
  for (let d = 1; d <= daysInMonth(month); d += 1) cells.push(`${month}-${String(d).padStart(2, "0")}`);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

export function PlanCalendar({ plan, view, readOnly, onMove }: Props) {
  const [over, setOver] = useState<string | null>(null);
  const inMonth = (date: string) => date.startsWith(plan.month);
  const move = (day: PlanDay, by: number) => {
    const date = addDays(day.date, by);
    if (inMonth(date)) onMove(day.id, date);
  };
  const drop = (date: string) => (e: DragEvent) => {
    e.preventDefault();
    setOver(null);
    const id = e.dataTransfer.getData("text/plain");
    if (id && !readOnly) onMove(id, date);
  };

  const chip = (day: PlanDay) => (
    <div
      key={day.id}
      className="plan-post"
      draggable={!readOnly}
      onDragStart={(e) => e.dataTransfer.setData("text/plain", day.id)}
      data-network={day.network}
      aria-label={`${formatDay(day.date)}, ${NETWORK_LABELS[day.network]}: ${day.idea}`}
    >
      <strong>{NETWORK_LABELS[day.network]}</strong>
      <span className="plan-idea">{day.idea}</span>
      <span className="plan-actions">
        {readOnly ? null : (
          <>
            <Button size="sm" variant="ghost" aria-label={`Move ${formatDay(day.date)} post a day earlier`} disabled={!inMonth(addDays(day.date, -1))} onClick={() => move(day, -1)}>
              ←
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Move ${formatDay(day.date)} post a day later`} disabled={!inMonth(addDays(day.date, 1))} onClick={() => move(day, 1)}>
              →
            </Button>
          </>
        )}
        <Link to={generatorLink(day)} className="usage-link" aria-label={`Open ${formatDay(day.date)} post in the generator`}>
          Open
        </Link>
      </span>
    </div>
  );

  if (view === "list") {
    return (
      <ul className="plan-list">
        {plan.days.map((day) => (
          <li key={day.id} className="plan-list-item">
            <p className="post-meta">
              {formatDay(day.date)} · {day.theme}
            </p>
            {chip(day)}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="plan-scroll">
      <table className="plan-month">
        <TableHead columns={WEEKDAYS} />
        <tbody>
          {weeks(plan.month).map((week, w) => (
            <tr key={w}>
              {week.map((date, i) =>
                date ? (
                  <td
                    key={date}
                    className={over === date ? "is-over" : undefined}
                    data-date={date}
                    onDragOver={(e) => {
                      e.preventDefault();
                      setOver(date);
                    }}
                    onDragLeave={() => setOver((o) => (o === date ? null : o))}
                    onDrop={drop(date)}
                  >
                    <span className="plan-date">{Number(date.slice(8))}</span>
                    {plan.days.filter((d) => d.date === date).map(chip)}
                  </td>
                ) : (
                  <td key={`blank-${i}`} className="is-blank" />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
