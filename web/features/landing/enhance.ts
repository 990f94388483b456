// The landing page's only behaviour: the phone menu opens and closes (button, link, Escape). Plain DOM, no framework.
export function enhanceLanding(root: Document | HTMLElement): () => void {
  const button = root.querySelector<HTMLButtonElement>("[data-menu-toggle]");
  const menu = root.querySelector<HTMLElement>("#landing-menu");
  if (!button || !menu) return () => {};
  const setOpen = (open: boolean) => {
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", open ? "Close menu" : "Open menu");
    menu.classList.toggle("is-open", open);
  };
  const onToggle = () => setOpen(button.getAttribute("aria-expanded") !== "true");
  // Following a link (an in-page section or another page) closes the menu.
  const onMenuClick = (e: Event) => {
    if ((e.target as HTMLElement).closest("a")) setOpen(false);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      button.focus();
    }
  };
  button.addEventListener("click", onToggle);
  menu.addEventListener("click", onMenuClick);
  document.addEventListener("keydown", onKey);
  return () => {
    button.removeEventListener("click", onToggle);
    menu.removeEventListener("click", onMenuClick);
    document.removeEventListener("keydown", onKey);
  };
}
