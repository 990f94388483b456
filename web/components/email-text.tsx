// An email address that uses the room it has: it may break before the '@' onto a second line (the CSS clamps it
// to two), and the whole address shows on hover where it still has to be cut.
export function EmailText({ email, className }: { email: string; className: string }) {
  const at = email.indexOf("@");
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
