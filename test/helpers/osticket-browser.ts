/** A reply from osTicket's web pages, body as text. */
export interface PageReply {
  status: number;
  headers: Headers;
  text: string;
}

const CSRF_INPUT = /name="__CSRFToken__" value="([^"]+)"/;
const CSRF_META = /<meta name="csrf_token" content="([^"]+)"/;

/** The CSRF token osTicket put in a page (hidden input or the staff panel's meta tag). */
export function findCsrfToken(html: string): string {
  const match = CSRF_INPUT.exec(html) ?? CSRF_META.exec(html);
  if (!match?.[1]) throw new Error('no __CSRFToken__ in the page');
  return match[1];
}

/**
 * A person's browser against one osTicket: a cookie jar, redirects followed by hand (so the
 * cookies they set are kept), forms posted url-encoded with the page's CSRF token.
 */
export class OsticketBrowser {
  readonly #base: string;
  readonly #cookies = new Map<string, string>();
  #token = '';

  /** `base` ends with a slash: http://127.0.0.1:PORT/upload/ */
  constructor(base: string) {
    this.#base = base;
  }

  get csrfToken(): string {
    return this.#token;
  }

  url(path: string): string {
    return new URL(path, this.#base).toString();
  }

  async get(path: string): Promise<PageReply> {
    return this.#request('GET', this.url(path));
  }

  /** Posts a form the way the page's <form> does, with the token of the last page read. */
  async postForm(path: string, fields: Record<string, string | string[]>): Promise<PageReply> {
    const body = new URLSearchParams();
    if (!('__CSRFToken__' in fields)) body.append('__CSRFToken__', this.#token);
    for (const [name, value] of Object.entries(fields)) {
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    }
    return this.#request('POST', this.url(path), body, {
      'content-type': 'application/x-www-form-urlencoded',
      referer: this.url(path),
    });
  }

  /** An XHR of the staff panel: the token in X-CSRFToken and a Referer, as its JavaScript sends. */
  async postAjax(path: string, fields: Record<string, string>): Promise<PageReply> {
    return this.#request('POST', this.url(path), new URLSearchParams(fields), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-csrftoken': this.#token,
      'x-requested-with': 'XMLHttpRequest',
      referer: this.url('scp/tickets.php'),
    });
  }

  /** Agent sign-in at scp/login.php; throws unless the panel answers signed in. */
  async signInStaff(username: string, password: string): Promise<void> {
    await this.get('scp/login.php');
    const page = await this.postForm('scp/login.php', {
      userid: username,
      passwd: password,
      do: 'scplogin',
    });
    if (!/Log Out|Sign Out/i.test(page.text)) {
      throw new Error(`staff login as ${username} failed (HTTP ${page.status})`);
    }
  }

  /** Client portal sign-in at login.php; throws unless the page reads "… Sign Out". */
  async signInClient(email: string, password: string): Promise<void> {
    await this.get('login.php');
    const page = await this.postForm('login.php', { luser: email, lpasswd: password });
    if (!/Sign Out/i.test(page.text)) throw new Error(`client login as ${email} failed`);
  }

  async #request(
    method: string,
    url: string,
    body?: URLSearchParams,
    headers: Record<string, string> = {},
  ): Promise<PageReply> {
    let target = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(target, {
        method: currentMethod,
        headers: { ...headers, cookie: this.#cookieHeader() },
        body: currentBody,
        redirect: 'manual',
      });
      for (const line of response.headers.getSetCookie()) this.#keepCookie(line);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.arrayBuffer();
        target = new URL(location, target).toString();
        currentMethod = 'GET';
        currentBody = undefined;
        continue;
      }
      const text = await response.text();
      const token = CSRF_INPUT.exec(text) ?? CSRF_META.exec(text);
      if (token?.[1]) this.#token = token[1];
      return { status: response.status, headers: response.headers, text };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  #cookieHeader(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  #keepCookie(line: string): void {
    const pair = line.split(';', 1)[0] ?? '';
    const at = pair.indexOf('=');
    if (at <= 0) return;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (value === 'deleted' || value === '') this.#cookies.delete(name);
    else this.#cookies.set(name, value);
  }
}
