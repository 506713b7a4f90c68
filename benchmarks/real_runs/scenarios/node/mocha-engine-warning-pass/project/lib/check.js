export class MissingVariableError extends Error {
  constructor(names) {
    super(`missing required variables: ${names.join(', ')}`);
    this.name = 'MissingVariableError';
    this.names = names;
  }
}

export function check(required, env = process.env) {
  const missing = required.filter((name) => !env[name]);
  if (missing.length) throw new MissingVariableError(missing);
  return required.length;
}
