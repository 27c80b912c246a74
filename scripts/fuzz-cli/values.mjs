// attnx CLI fuzzer: hostile and boundary values for flags, by kind. Strings are passed as UTF-8;
// Buffers carry raw bytes (invalid UTF-8, control bytes) into argv unchanged.

const big = (digits) => '9'.repeat(digits);

// Integers: boundaries of the tables and every way to write a not-quite-integer.
export const INT_HOSTILE = [
  '', '0', '-1', '-0', '+5', '1.0', '3.0', '1e3', '0x10', '010', ' 5', '5 ', '5\n', '\t7',
  'NaN', 'nan', 'inf', '-inf', 'Infinity', '2147483647', '2147483648', '-2147483649',
  '4294967296', '9007199254740991', '9007199254740992', '9223372036854775807',
  '9223372036854775808', '-9223372036854775809', '18446744073709551616', big(70),
  `1${'0'.repeat(400)}`, '\x1b[2J', '\u202e5', '\uff15', '1,2', 'abc', '--L', '-', '=5', '5=',
  Buffer.from([0x35, 0xff]), Buffer.from([0xc0, 0xb5]), Buffer.from([0x1b, 0x5d, 0x30, 0x3b, 0x07]),
];

// Reals: overflow, underflow, subnormals, long digit strings, non-decimal spellings.
export const REAL_HOSTILE = [
  '', 'NaN', 'nan', '-nan', 'inf', '-inf', 'Infinity', '1e400', '-1e400', '1e-400', '-1e-400',
  '1e308', '1.7976931348623157e308', '1.7976931348623159e308', '5e-324', '4.9e-324',
  '2.2250738585072014e-308', '0', '-0', '0.0', '1e39', '1e38', '3.4e38', '1e-300', '1e-320',
  `0.${'0'.repeat(400)}1`, `${'1'.repeat(70)}`, `1.${'1'.repeat(70)}`, '.5', '5.', '1e', 'e5',
  '1e+', '1e-', '0x1p3', '1_000', '\uff11', '1..2', '--1', '+-1', '1e5000000000', '0.1\x1b',
  '0.99999999999999999999', '1.0000000000000000001', '100.0000000001', '1e-7', '1E2',
  Buffer.from([0x30, 0x2e, 0x35, 0x80]),
];

// Choice flags: near misses of the real names.
export const CHOICE_HOSTILE = [
  '', 'RANDOM', 'random ', ' random', 'rand', 'custom', 'json,csv', 'Json', 'csv\x1b', 'text',
  '\u202ejson', 'none', 'null', '__proto__', 'constructor', 'toString', 'window\n',
  Buffer.from([0x72, 0x61, 0x6e, 0x64, 0x6f, 0x6d, 0xff]),
];

// Length lists (--Ls).
export const LIST_HOSTILE = [
  '', ',', '64,', ',64', '64,,128', '128,64', '64,64', '2,16385', '1,2', '64;128', ' 64',
  '64 ,128', '0x40', '64.0', '-64', big(70), Array.from({ length: 65 }, (_, i) => i + 2).join(','),
  Array.from({ length: 64 }, (_, i) => i + 2).join(','), '2', '16384', '16383,16384',
  'NaN', '1e2', '\x1b[1m64',
];

// Unknown or misspelled flags.
export const UNKNOWN_FLAGS = [
  '--l', '--LL', '--Ls', '--k-', '--eps-', '--max_bytes', '--maxBytes', '--wmin', '--w_min',
  '--pattern-files', '--', '---L', '-L', '--=5', '--\x1b[31m', '--\u202eL', '--constructor',
  '--__proto__', '--help=1', '--progress=yes', Buffer.from([0x2d, 0x2d, 0xff, 0xfe]),
  `--${'x'.repeat(300)}`,
];

// Stray positional arguments and commands.
export const STRAY = ['x', '-', '-h', '-V', '256', 'construct', '--', '', ' ', '\x1b', 'sweep',
  Buffer.from([0xff])];
