import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INT32_MAX, integerField } from './fields.ts';

describe('integerField', () => {
  const field = integerField(0, INT32_MAX);
  const message = `must be an integer from 0 to ${INT32_MAX} (a JSON number or a string of digits)`;

  test('a JSON integer or a string of ASCII digits, within the bounds, gives a number', () => {
    for (const [input, output] of [
      [0, 0],
      [7, 7],
      [INT32_MAX, INT32_MAX],
      ['0', 0],
      ['007', 7],
      [String(INT32_MAX), INT32_MAX],
    ] as const) {
      assert.equal(field.parse(input), output, JSON.stringify(input));
    }
  });

  const refused: unknown[] = [
    -1,
    INT32_MAX + 1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '-1',
    '1.5',
    '',
    ' 1',
    '1 ',
    '0x1f',
    '1e3',
    '１２', // full-width digits are not ASCII digits
    String(INT32_MAX + 1),
    '1'.repeat(21),
    true,
    null,
    [],
    [1],
    {},
  ];
  for (const input of refused) {
    test(`${JSON.stringify(input) ?? String(input)} is refused with the one message`, () => {
      const result = field.safeParse(input);
      assert.equal(result.success, false);
      assert.deepEqual([...new Set(result.error?.issues.map((issue) => issue.message))], [message]);
    });
  }

  test('a JSON number beyond the safe integers is refused too', () => {
    // zod's own message ("Too big: expected int …") comes through here, not the field's.
    assert.equal(field.safeParse(1e300).success, false);
    assert.equal(field.safeParse(2 ** 53).success, false);
  });

  test('the bounds are part of the field and of its message', () => {
    const small = integerField(1, 9);
    assert.equal(small.parse('9'), 9);
    assert.equal(small.safeParse(0).success, false);
    assert.equal(small.safeParse('10').success, false);
    assert.match(String(small.safeParse(10).error?.issues[0]?.message), /from 1 to 9/);
  });

  test('the schema carries its bounds for the OpenAPI document', () => {
    assert.deepEqual(
      { minimum: field.meta()?.minimum, maximum: field.meta()?.maximum },
      { minimum: 0, maximum: INT32_MAX },
    );
  });
});
