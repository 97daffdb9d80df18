// The sign-in page (docs/app.md "Sign-in"): a personal API key typed into a form, and "Sign in
// with <provider>" when OpenID Connect is configured. A sign-in link needs no page: it signs in
// and goes on.
import { html } from "hono/html";
import type { Html } from "../layout.ts";
import type { Paths } from "../paths.ts";

export interface SignInView {
  paths: Paths;
  /** The pre-session CSRF token (its cookie's twin). */
  csrf: string;
  next: string;
  /** The OpenID provider's name, when configured. */
  provider?: string | undefined;
}

export function signInPage(view: SignInView): Html {
  const { paths } = view;
  const oidc = view.provider
    ? html`<p>or</p>
        <p>
          <a class="button primary" href="${paths.app}/sign-in/oidc?next=${encodeURIComponent(view.next)}">Sign in with ${view.provider}</a>
        </p>`
    : "";
  return html`<h1>Sign in</h1>
    <form method="post" action="${paths.app}/sign-in">
      <input type="hidden" name="_csrf" value="${view.csrf}" />
      <input type="hidden" name="next" value="${view.next}" />
      <div class="field">
        <label for="api-key">API key</label>
        <input type="text" id="api-key" name="key" autocomplete="off" spellcheck="false" required aria-describedby="api-key-help" />
        <small id="api-key-help">A personal API key (wgk_…) from <code>workspace-gateway keys create</code>.</small>
      </div>
      <button type="submit" class="primary">Sign in</button>
    </form>
    ${oidc}
    <p class="meta">Or open a sign-in link from <code>workspace-gateway keys sign-in-link --user &lt;id&gt;</code>.</p>`;
}
