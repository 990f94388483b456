// Saving text or a blob as a file from the page.

/** Saves text as a file through a temporary link (the export needs the bearer header, so no plain <a href>). */
export function downloadText(text: string, filename: string, type = "text/csv;charset=utf-8") {
  downloadBlob(new Blob([text], { type }), filename);
}

/** Saves a blob (a fetched image, an export) as a file through a temporary link. */
export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
