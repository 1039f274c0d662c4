/**
 * Fetches a label file from one of the app's routes (App Bridge adds the session token to fetch) and hands it
 * to the browser: saved under the name the route gives it, or opened in a new tab to print. Returns the
 * route's own words when it has no file, null when the file was handed over.
 */
export async function openLabelFile(url: string, mode: "download" | "print"): Promise<string | null> {
  const response = await fetch(url);
  if (!response.ok) return response.text();
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "label";
  const objectUrl = URL.createObjectURL(await response.blob());
  if (mode === "print") window.open(objectUrl, "_blank");
  else {
    const anchor = document.createElement("a");
    anchor.href = objectUrl;
    anchor.download = filename;
    anchor.click();
  }
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  return null;
}
