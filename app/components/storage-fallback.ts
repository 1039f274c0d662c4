/**
 * Web storage that cannot be denied. In Shopify admin the app is a cross-site frame, and a browser that
 * blocks third-party cookies (incognito, Brave, stricter defaults) denies such a frame its sessionStorage and
 * localStorage: merely reading `window.sessionStorage` throws SecurityError. Remix (route discovery, scroll
 * restoration) and other libraries read it without a guard, which turns the first navigation into an
 * "Application Error". Where access is denied, this puts an in-memory Storage in its place for the life of the
 * page: nothing the app keeps there needs to outlive the page.
 *
 * It runs as an inline script before any other script (app/root.tsx), so it is written without imports or
 * closures over module scope: `storageFallbackScript` is its own source text.
 */
export function installStorageFallback(): void {
  for (const name of ["sessionStorage", "localStorage"] as const) {
    try {
      window[name].getItem("");
      continue;
    } catch {
      // Denied: fall through to the in-memory stand-in.
    }
    const items = new Map<string, string>();
    const storage: Storage = {
      get length() {
        return items.size;
      },
      key: (index) => Array.from(items.keys())[index] ?? null,
      getItem: (key) => items.get(String(key)) ?? null,
      setItem: (key, value) => void items.set(String(key), String(value)),
      removeItem: (key) => void items.delete(String(key)),
      clear: () => items.clear(),
    };
    Object.defineProperty(window, name, { value: storage, configurable: true });
  }
}

export const storageFallbackScript = `(${installStorageFallback.toString()})();`;
