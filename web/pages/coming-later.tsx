// Stand-in for pages a later issue builds; routes.tsx swaps it for the real page in one line.
import { Brand } from "../components/brand";
import { SparklesIcon } from "../components/icons";

export function ComingLater({ title, standalone = false }: { title: string; standalone?: boolean }) {
  const body = (
    <section className="card placeholder" aria-labelledby="coming-later-title">
      <title>{`${title} · Porchlight`}</title>
      <span className="placeholder-icon">
        <SparklesIcon />
      </span>
      <h1 className="placeholder-title" id="coming-later-title">
        {title}
      </h1>
      <p className="placeholder-text">We're putting the finishing touches on this page.</p>
    </section>
  );
  if (!standalone) return body;
  return (
    <div className="public-frame">
      <header className="public-frame-head">
        <Brand />
      </header>
      <main className="main-inner">{body}</main>
    </div>
  );
}
