// A month grid (Monday first) with each day's items: the GMB Post Scheduler's calendar, ready for any dated list.
import type { ReactNode } from "react";
import { ChevronRightIcon } from "../../design/icons";
import { Button } from "../../design/button";
import "./content.css";

export type CalendarMonth = { year: number; month: number };

/** "2026-11-05" for a date in the browser's zone. */
export function dayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

export function shiftMonth(m: CalendarMonth, by: number): CalendarMonth {
  const d = new Date(m.year, m.month + by, 1);
  return { year: d.getFullYear(), month: d.getMonth() };
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const TITLE = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" });

export function MonthCalendar<T>({
  month,
  onMonthChange,
  items,
  dayOf,
  renderItem,
  onDayClick,
}: {
  month: CalendarMonth;
  onMonthChange: (m: CalendarMonth) => void;
  items: readonly T[];
  dayOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  onDayClick?: (day: string) => void;
}) {
  const first = new Date(month.year, month.month, 1);
  const offset = (first.getDay() + 6) % 7;
  const days = new Date(month.year, month.month + 1, 0).getDate();
  const cells = Array.from({ length: Math.ceil((offset + days) / 7) * 7 }, (_, i) => {
    const n = i - offset + 1;
    return n >= 1 && n <= days ? new Date(month.year, month.month, n) : null;
  });
  const byDay = new Map<string, T[]>();
  for (const item of items) byDay.set(dayOf(item), [...(byDay.get(dayOf(item)) ?? []), item]);
  const today = dayKey(new Date());
  return (
    <div className="month-calendar">
      <div className="month-calendar-head">
        <Button size="sm" variant="ghost" aria-label="Previous month" onClick={() => onMonthChange(shiftMonth(month, -1))}>
          <ChevronRightIcon className="flip" size="sm" />
        </Button>
        <h3 className="month-calendar-title">{TITLE.format(first)}</h3>
        <Button size="sm" variant="ghost" aria-label="Next month" onClick={() => onMonthChange(shiftMonth(month, 1))}>
          <ChevronRightIcon size="sm" />
        </Button>
      </div>
      <div className="month-calendar-grid" role="grid" aria-label={TITLE.format(first)}>
        {WEEKDAYS.map((d) => (
          <div key={d} className="month-calendar-weekday" role="columnheader">
            {d}
          </div>
        ))}
        {cells.map((date, i) => {
          if (!date) return <div key={i} className="month-calendar-day is-empty" />;
          const key = dayKey(date);
          return (
            <div key={key} role="gridcell" className={key === today ? "month-calendar-day is-today" : "month-calendar-day"} aria-label={key}>
              {onDayClick ? (
                <button type="button" className="month-calendar-date" onClick={() => onDayClick(key)} aria-label={`Schedule on ${key}`}>
                  {date.getDate()}
                </button>
              ) : (
                <span className="month-calendar-date">{date.getDate()}</span>
              )}
              {(byDay.get(key) ?? []).map(renderItem)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
