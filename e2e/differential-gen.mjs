// Generated cases for the differential test: documents over the Star
// Wars schema drawn by a seeded generator, valid and invalid alike
// (unknown fields and types, misplaced and repeated directives, field
// conflicts, fragment cycles, variables of every kind, bad values), so
// that graft and graphql-js meet documents no one thought to write.
//
// generate(seed, n, bad) returns n cases ({ query, variables? }); the
// same seed gives the same cases. bad (0 to 1) is how often each choice
// may be an invalid one: near 0 most documents are valid, and the few
// invalid ones have one or two errors; at 1 most have several.

// mulberry32: a small seeded PRNG.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const types = {
  Query: {
    hero: { type: 'Character', args: { episode: 'Episode' } },
    human: { type: 'Human', args: { id: 'String!' } },
    droid: { type: 'Droid', args: { id: 'String!' } },
  },
  Character: {
    id: { type: 'String!' }, name: { type: 'String' }, friends: { type: 'Character' },
    appearsIn: { type: 'Episode' }, secretBackstory: { type: 'String' },
  },
};
types.Human = { ...types.Character, homePlanet: { type: 'String' } };
types.Droid = { ...types.Character, primaryFunction: { type: 'String' } };
const objectTypes = new Set(['Query', 'Character', 'Human', 'Droid']);
// spreadable are the type conditions a fragment may have inside a type.
const spreadable = {
  Query: ['Query'], Character: ['Human', 'Droid', 'Character'], Human: ['Human', 'Character'], Droid: ['Droid', 'Character'],
};

class Gen {
  constructor(rand, bad) {
    this.r = rand;
    this.bad = bad;
    this.fragments = [];
    this.vars = new Map();
  }

  int(n) { return Math.floor(this.r() * n); }

  pick(xs) { return xs[this.int(xs.length)]; }

  chance(p) { return this.r() < p; }

  // wrong reports whether this choice is to be an invalid one.
  wrong(p) { return this.r() < p * this.bad; }

  // value writes an argument value for a type, mostly of that type.
  value(type) {
    if (this.vars.size > 0 && this.chance(0.3)) {
      // A variable of the position's type (a nullable one without default
      // in a non-null position is an error), or of any type.
      const fits = [...this.vars].filter(([, t]) => t.split(' ')[0].replace('!', '') === type.replace('!', '')
        && (!type.endsWith('!') || t.endsWith('!') || t.includes('=')));
      if (fits.length > 0 && !this.wrong(0.3)) return '$' + this.pick(fits)[0];
      if (this.wrong(1)) return '$' + this.pick([...this.vars.keys()]);
    }
    if (this.wrong(0.1)) return this.pick(['null', '1', '"x"', 'true', '[JEDI]', '{a: 1}', 'EMPIR', '1.5']);
    switch (type.replace('!', '')) {
      case 'Episode': return this.pick(['NEWHOPE', 'EMPIRE', 'JEDI']);
      case 'String': return this.pick(['"1000"', '"1001"', '"2001"', '"2000"', '"9999"', '""']);
      case 'Boolean': return this.pick(['true', 'false']);
      default: return 'null';
    }
  }

  args(field) {
    const defs = field.args ?? {};
    const out = [];
    for (const [name, type] of Object.entries(defs)) {
      if (type.endsWith('!') ? !this.wrong(0.08) : this.chance(0.5)) out.push(`${name}: ${this.value(type)}`);
    }
    if (this.wrong(0.05)) out.push(`${this.pick(['episode', 'id', 'first', 'x'])}: ${this.value('String')}`);
    if (out.length === 0) return '';
    return `(${out.join(', ')})`;
  }

  directives(onField) {
    if (!this.chance(0.2)) return '';
    const d = [];
    const n = this.wrong(0.5) ? 2 : 1;
    for (let i = 0; i < n; i++) {
      const name = this.wrong(0.3) ? this.pick(['deprecated', 'unknown']) : this.pick(['include', 'skip']);
      const arg = !this.wrong(0.1) ? `(if: ${this.value('Boolean!')})` : this.pick(['', '(iff: true)', '(reason: "x")']);
      d.push(`@${name}${arg}`);
    }
    return ' ' + d.join(' ');
  }

  // selection writes a selection set for type at depth.
  selection(type, depth) {
    const fields = types[type] ?? types.Character;
    const n = 1 + this.int(3);
    const parts = [];
    for (let i = 0; i < n; i++) parts.push(this.item(type, fields, depth));
    return `{ ${parts.join(' ')} }`;
  }

  item(type, fields, depth) {
    const roll = this.r();
    if (roll < 0.08 && depth < 4) {
      const on = this.wrong(0.4) ? this.pick(['Query', 'Episode', 'Unknown', 'Human', 'Droid']) : this.pick(spreadable[type]);
      const cond = this.chance(0.8) ? ` on ${on}` : '';
      const body = objectTypes.has(on) ? on : type;
      return `...${cond}${this.directives(false)} ${this.selection(body, depth + 1)}`;
    }
    if (roll < 0.14 && depth < 4) {
      const on = this.wrong(0.3) ? this.pick(['Query', 'Human', 'Droid']) : this.pick(spreadable[type]);
      const name = this.wrong(0.1) ? 'Missing' : `F${this.fragments.length}`;
      if (name !== 'Missing') {
        this.fragments.push(null);
        const i = this.fragments.length - 1;
        this.fragments[i] = `fragment ${name} on ${on} ${this.selection(objectTypes.has(on) ? on : type, depth + 1)}`;
      }
      return `...${name}${this.directives(false)}`;
    }
    if (roll < 0.18 && this.fragments.length > 0 && this.wrong(1)) {
      return `...F${this.int(this.fragments.length)}`; // may make a cycle
    }
    if (roll < 0.22) return `${this.alias()}__typename`;
    if (roll < 0.24 && type === 'Query') {
      return this.wrong(0.5) ? this.pick(['__type(name: 1) { name }', '__schema']) : this.pick(['__schema { queryType { name } }', '__type(name: "Human") { name kind }']);
    }
    let name = this.pick(Object.keys(fields));
    if (this.wrong(0.05)) name = this.pick(['homePlanet', 'primaryFunction', 'nam', 'hero', 'friend']);
    const f = fields[name] ?? { type: 'String' };
    let s = `${this.alias()}${name}${this.args(f)}${this.directives(true)}`;
    const isObject = objectTypes.has(f.type.replace('!', ''));
    if (isObject ? (!this.wrong(0.05) || depth >= 5) : this.wrong(0.03)) {
      s += ' ' + this.selection(isObject ? f.type : 'Character', depth + 1);
    }
    return s;
  }

  alias() {
    if (!this.chance(0.15)) return '';
    return (this.wrong(0.5) ? this.pick(['name', 'id', 'hero']) : this.pick(['a', 'b', 'c', 'd'])) + ': ';
  }

  variables() {
    const all = [
      ['e', 'Episode'], ['id', 'String!'], ['b', 'Boolean!'], ['s', 'String = "1000"'], ['l', '[Episode]'],
      ['bb', 'Boolean = true'], ['e2', 'Episode!'], ['h', 'Human'], ['u', 'Unknown'],
    ];
    const defs = [];
    const values = {};
    for (const [name, type] of all) {
      if (!this.chance(0.25) || ((name === 'h' || name === 'u') && !this.wrong(1))) continue;
      this.vars.set(name, type);
      defs.push([name, `$${name}: ${type}`]);
      const t = type.split(' ')[0];
      if (t.endsWith('!') ? !this.wrong(0.3) : this.chance(0.7)) {
        values[name] = !this.wrong(0.15) ? {
          Episode: this.pick(['NEWHOPE', 'EMPIRE', 'JEDI']), 'Episode!': this.pick(['NEWHOPE', 'EMPIRE', 'JEDI']),
          String: this.pick(['1000', '2001', '1003']), 'String!': this.pick(['1000', '2001', '1003', '9999']),
          Boolean: this.chance(0.5), 'Boolean!': this.chance(0.5), '[Episode]': ['JEDI'], Human: { id: '1' }, Unknown: 1,
        }[t] : this.pick([null, 1, 'x', true, ['JEDI'], { a: 1 }, 'EMPIR', 2147483648]);
      }
    }
    return { defs, values };
  }

  operation(i) {
    this.vars = new Map();
    const { defs, values } = this.variables();
    const kind = !this.wrong(0.05) ? 'query' : this.pick(['mutation', 'subscription']);
    const body = this.selection('Query', 0);
    // A variable the operation does not use is an error, made only as
    // often as the others.
    const used = defs.filter(([name]) => this.wrong(0.5) || body.includes('$' + name) || this.fragments.some((f) => f.includes('$' + name)));
    const named = this.chance(0.6) || i > 0;
    let head = '';
    if (named || used.length > 0) {
      const name = named ? 'Op' + (this.wrong(0.5) ? 0 : i) : '';
      head = `${kind} ${name}${used.length ? '(' + used.map(([, d]) => d).join(', ') + ')' : ''}${this.directives(false)} `;
    } else if (kind !== 'query') {
      head = `${kind} `;
    }
    const vals = {};
    for (const [name] of used) if (name in values) vals[name] = values[name];
    return { text: head + body, values: vals };
  }

  document() {
    this.fragments = [];
    const ops = [];
    let variables = {};
    const n = this.chance(0.9) ? 1 : 2;
    for (let i = 0; i < n; i++) {
      const op = this.operation(i);
      ops.push(op.text);
      variables = { ...variables, ...op.values };
    }
    const c = { query: [...ops, ...this.fragments].join('\n') };
    if (Object.keys(variables).length > 0) c.variables = variables;
    if (n > 1) c.operationName = this.wrong(0.3) ? this.pick(['Op2', undefined]) : this.pick(['Op0', 'Op1']);
    return c;
  }
}

export function generate(seed, n, bad = 1) {
  const g = new Gen(prng(seed), bad);
  const out = [];
  for (let i = 0; i < n; i++) out.push(g.document());
  return out;
}
