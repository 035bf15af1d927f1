/**
 * Environment variable names that look like secrets. Without an operator ceiling, a hook gets
 * one of these only when the operator approves it for that hook: declaring it is not enough.
 * Matched case-insensitively; false positives (TOKENIZERS_PARALLELISM) cost an approval, a
 * false negative would cost a secret.
 */
const SECRET_NAMES: readonly RegExp[] = [
  /_KEYS?$/,
  /^KEY$/,
  /TOKEN/,
  /SECRET/,
  /PASSWORD/,
  /PASSWD/,
  /PASSPHRASE/,
  /CREDENTIAL/,
  /(^|_)AUTH/,
  /_PAT$/,
  /PRIVATE/,
  /COOKIE/,
  /SESSION/,
  /SIGNATURE/,
  /^DATABASE_URL$/,
  /_DSN$/,
  /_CONN(ECTION)?_?STRING$/,
  /^(ANTHROPIC|CLAUDE|CLAUDE_CODE|OPENAI|AZURE|AWS|GOOGLE|GCP|GCLOUD|GEMINI|GH|GITHUB|GITLAB|BITBUCKET|NPM|YARN|PYPI|TWINE|CARGO_REGISTRY|SSH|GPG|GNUPG|VAULT|HF|HUGGING_FACE|HUGGINGFACE|STRIPE|SLACK|TWILIO|SENTRY|DATADOG|DD|HEROKU|CLOUDFLARE|CF|DIGITALOCEAN|DOCKER|KUBE|OP|CURSOR|CODEX|COPILOT|MISTRAL|GROQ|COHERE|REPLICATE|OPENROUTER)_/,
  /^KUBECONFIG$/,
];

export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.some((pattern) => pattern.test(upper));
}
