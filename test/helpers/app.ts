// A browser's HTTP behaviour, enough for the owner's application's non-browser tests: a cookie
// jar, the Origin header a browser sends on a form post, and the CSRF token read off a page.
export interface AppResponse {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

export class AppClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = value === "" || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<AppResponse> {
    const response = await fetch(new URL(path, this.base), {
      redirect: "manual",
      ...init,
      headers: { cookie: this.cookieHeader(), ...init.headers },
    });
    this.remember(response);
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, text: await response.text() };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<AppResponse> {
    return this.request(path, { headers });
  }

  /** A form post as a browser sends it from one of the application's pages. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<AppResponse> {
    return this.request(path, {
      method: "POST",
      headers: { origin: this.base, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Follows redirects (GETs), as a browser does after a post. */
  async follow(response: AppResponse): Promise<AppResponse> {
    let current = response;
    for (let hops = 0; current.location && hops < 5; hops++) current = await this.get(current.location);
    return current;
  }

  /** Signs in with a personal API key through the sign-in form. */
  async signInWithKey(key: string): Promise<AppResponse> {
    const page = await this.get("/app/sign-in");
    return this.post("/app/sign-in", { key, next: "/app", _csrf: csrfOf(page.text) });
  }
}

/** The CSRF token a page's forms carry. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("no CSRF token on this page");
  return match[1]!;
}
