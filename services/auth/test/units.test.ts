import { allowedRedirect, globToRegExp } from '../src/server/redirect';
import { renderTemplate } from '../src/mail/templates';
import { base32Decode, base32Encode, totpCode, totpMatches, totpUri } from '../src/tokens/totp';
import { pkceMatches, tokenHash } from '../src/tokens/otp';
import { RateLimiter } from '../src/server/rate-limit';
import { banDurationMs } from '../src/routes/admin';
import { webhookSignature } from '../src/tokens/hooks';
import { createHash } from 'node:crypto';

describe('redirect allow list', () => {
  const site = 'https://app.example.com';
  it('allows the site URL host, and entries with * (no dot or slash) and ** (anything)', () => {
    const list = ['https://*.preview.example.com/**', 'myapp://callback', 'http://localhost:3000/auth/**'];
    expect(allowedRedirect('https://app.example.com/welcome', site, list)).toBe('https://app.example.com/welcome');
    expect(allowedRedirect('https://pr-12.preview.example.com/a/b?x=1', site, list)).toBe('https://pr-12.preview.example.com/a/b?x=1');
    expect(allowedRedirect('https://a.b.preview.example.com/', site, list)).toBe(site);
    expect(allowedRedirect('myapp://callback', site, list)).toBe('myapp://callback');
    expect(allowedRedirect('http://localhost:3000/auth/callback', site, list)).toBe('http://localhost:3000/auth/callback');
    expect(allowedRedirect('http://localhost:3000/other', site, list)).toBe(site);
  });
  it('falls back to the site URL for anything else, malformed URLs and credentials tricks', () => {
    for (const bad of ['https://evil.example.net/', 'not a url', 'https://app.example.com@evil.example.net/', 'javascript:alert(1)', 'http://app.example.com/']) {
      expect(allowedRedirect(bad, 'https://app.example.com', ['https://other.example.com'])).toBe('https://app.example.com');
    }
    expect(allowedRedirect(undefined, site, [])).toBe(site);
  });
  it('treats an entry without wildcards as its URL and the paths under it, and escapes regex characters', () => {
    expect(allowedRedirect('https://x.example.com/cb/deeper', site, ['https://x.example.com/cb'])).toBe('https://x.example.com/cb/deeper');
    expect(allowedRedirect('https://x.example.com/cbx', site, ['https://x.example.com/cb'])).toBe(site);
    expect(globToRegExp('https://a+b.example.com/(x)').test('https://a+b.example.com/(x)')).toBe(true);
    expect(globToRegExp('https://a.example.com').test('https://aXexample.com')).toBe(false);
  });
});

describe('email templates', () => {
  const values = { ConfirmationURL: 'https://x/verify?token=a&type=signup', Token: '123456', TokenHash: 'abc', SiteURL: 'https://app', Email: 'a@b.c', NewEmail: '', RedirectTo: 'https://app/r', Data: { name: 'Ann <script>', nested: { k: 1 } } };
  it('substitutes Go template variables, escaped for HTML, with and without spaces and trim markers', () => {
    expect(renderTemplate('<a href="{{ .ConfirmationURL }}">{{.Token}}</a> {{- .Email -}}', values)).toBe('<a href="https://x/verify?token=a&amp;type=signup">123456</a>a@b.c');
    expect(renderTemplate('Hi {{ .Data.name }} {{ .Data.nested }} {{ .Unknown }}!', values)).toBe('Hi Ann &lt;script&gt; {&#34;k&#34;:1} !');
    expect(renderTemplate('Subject for {{ .Data.name }}', values, false)).toBe('Subject for Ann <script>');
  });
  it('keeps the branch of {{ if }} whose value is set', () => {
    expect(renderTemplate('{{ if .NewEmail }}to {{ .NewEmail }}{{ else }}no change{{ end }}', values)).toBe('no change');
    expect(renderTemplate('{{ if .Token }}code {{ .Token }}{{ end }}', values)).toBe('code 123456');
  });
});

describe('TOTP (RFC 6238)', () => {
  // RFC 6238's SHA-1 test secret, "12345678901234567890".
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  it('computes the RFC test vectors (6 digits)', () => {
    expect(totpCode(secret, 59)).toBe('287082');
    expect(totpCode(secret, 1111111109)).toBe('081804');
    expect(totpCode(secret, 1234567890)).toBe('005924');
    expect(totpCode(secret, 2000000000)).toBe('279037');
  });
  it('accepts the current step and one either side, nothing else', () => {
    expect(totpMatches(secret, totpCode(secret, 1000), 1000)).toBe(true);
    expect(totpMatches(secret, totpCode(secret, 970), 1000)).toBe(true);
    expect(totpMatches(secret, totpCode(secret, 1060), 1000)).toBe(false);
    expect(totpMatches(secret, 'abcdef', 1000)).toBe(false);
  });
  it('round-trips base32 and builds the otpauth URI', () => {
    expect(base32Decode(base32Encode(Buffer.from('hello world'))).toString()).toBe('hello world');
    expect(totpUri(secret, 'app.example.com', 'a@b.c')).toBe(`otpauth://totp/app.example.com:a%40b.c?secret=${secret}&issuer=app.example.com&algorithm=SHA1&digits=6&period=30`);
  });
});

describe('codes, PKCE, limits, durations', () => {
  it('hashes a code with its address as GoTrue does (SHA-224 hex), PKCE ones marked', () => {
    expect(tokenHash('a@b.c', '123456')).toBe(createHash('sha224').update('a@b.c123456').digest('hex'));
    expect(tokenHash('a@b.c', '123456', true)).toMatch(/^pkce_[0-9a-f]{56}$/);
  });
  it('checks PKCE verifiers (S256 and plain)', () => {
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(pkceMatches('s256', challenge, verifier)).toBe(true);
    expect(pkceMatches('s256', challenge, `${verifier}x`)).toBe(false);
    expect(pkceMatches('plain', verifier, verifier)).toBe(true);
  });
  it('counts a fixed window per key', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now, 2);
    expect([limiter.take('a', { limit: 2, windowMs: 1000 }), limiter.take('a', { limit: 2, windowMs: 1000 }), limiter.take('a', { limit: 2, windowMs: 1000 })]).toEqual([true, true, false]);
    now = 1000;
    expect([limiter.take('a', { limit: 2, windowMs: 1000 }), limiter.take('a', { limit: 2, windowMs: 1000 }), limiter.take('a', { limit: 2, windowMs: 1000 })]).toEqual([true, true, false]);
    // A changed limit starts a new window: three more at a limit of 3, though two were counted already.
    expect([1, 2, 3, 4].map(() => limiter.take('a', { limit: 3, windowMs: 1000 }))).toEqual([true, true, true, false]);
    // Beyond maxBuckets the oldest key is forgotten.
    limiter.take('b', { limit: 1, windowMs: 1000 });
    limiter.take('c', { limit: 1, windowMs: 1000 });
    expect(limiter.take('a', { limit: 1, windowMs: 1000 })).toBe(true);
  });
  it('reads Go durations for bans', () => {
    expect(banDurationMs('24h')).toBe(86_400_000);
    expect(banDurationMs('1h30m')).toBe(5_400_000);
    expect(banDurationMs('none')).toBeNull();
    expect(() => banDurationMs('tomorrow')).toThrow('invalid format for ban duration');
  });
});

describe('HTTPS hooks', () => {
  it('sign requests as Standard Webhooks do (the specification example), once per secret', () => {
    const secret = 'v1,whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = webhookSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(webhookSignature(`${secret}|${secret}`, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}').split(' ')).toEqual([signature, signature]);
  });
});
