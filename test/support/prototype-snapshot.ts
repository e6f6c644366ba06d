/**
 * The own properties of the shared built-in prototypes and of every function or object they
 * hold (`Object.prototype.hasOwnProperty.polluted` included), as comparable text: a query that
 * changed any of them changed state every request of the process shares.
 */
export function prototypeSnapshot(): string[] {
  const shapes: string[] = [];
  const prototypes: [string, object][] = [
    ['Object', Object.prototype],
    ['Function', Function.prototype],
    ['Array', Array.prototype],
    ['String', String.prototype],
    ['Number', Number.prototype],
    ['Boolean', Boolean.prototype],
  ];
  for (const [name, prototype] of prototypes) {
    shapes.push(`${name}: ${describeKeys(prototype)}`);
    for (const key of Reflect.ownKeys(prototype)) {
      // Descriptors, not reads: a getter (e.g. `__proto__`, `caller`) may throw or compute.
      const held = Object.getOwnPropertyDescriptor(prototype, key)?.value as unknown;
      if ((typeof held === 'function' || (typeof held === 'object' && held !== null)) && held !== prototype)
        shapes.push(`${name}.${String(key)}: ${describeKeys(held)}`);
    }
  }
  return shapes;
}

function describeKeys(target: object): string {
  return Reflect.ownKeys(target)
    .map((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      const value = 'value' in descriptor ? typeof descriptor.value : 'accessor';
      return `${String(key)}(${value}${descriptor.writable === false ? ',ro' : ''})`;
    })
    .join(' ');
}
