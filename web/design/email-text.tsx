// An email address that uses the room it has: it may break before the '@' onto a second line (the CSS clamps it
// to two), and the whole address shows on hover where it still has to be cut. `oneLine` keeps it whole on one line
// (the sidebar: an address split at its '@' reads as two things), cut at the end by the CSS.
export function EmailText({ email, className, oneLine = false }: { email: string; className: string; oneLine?: boolean }) {
  const at = oneLine ? -1 : email.indexOf("@");
  return (
    <span className={className} title={email}>
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}
