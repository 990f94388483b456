import "./chat.css";
// Suggested questions from the report: a chip fills the message box.
export function QuestionChips({ questions, onPick, disabled }: { questions: string[]; onPick: (q: string) => void; disabled?: boolean }) {
  if (questions.length === 0) return null;
  return (
    <ul className="chat-chips" aria-label="Suggested questions">
      {questions.map((q) => (
        <li key={q}>
          <button type="button" className="chat-chip" title={q} disabled={disabled} onClick={() => onPick(q)}>
            {q}
          </button>
        </li>
      ))}
    </ul>
  );
}
