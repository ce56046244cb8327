import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { loadAppleCredentials, type AppleCredentials } from '../../src/wallet/apple/credentials';
import { defaultPassImages } from '../../src/wallet/apple/default-images';
import { buildApplePass, type ApplePassInput } from '../../src/wallet/apple/pass-builder';
import { parseColor } from '../../src/lib/colors';
import { opensslVerify as verifyWithRoot, sha1, unzipPass } from '../support/wallet-app';
import { createAppleTestChain, type AppleTestChain } from '../support/wallet-fixtures';

let chain: AppleTestChain;
let creds: AppleCredentials;

before(() => {
  chain = createAppleTestChain();
  // Sign with the encrypted key: the passphrase must travel all the way to node-forge.
  const loaded = loadAppleCredentials({
    ...chain.settings(),
    APPLE_PASS_KEY: chain.encryptedPassKeyPath,
    APPLE_PASS_KEY_PASSPHRASE: chain.passphrase,
  });
  assert.equal(loaded.configured, true);
  creds = loaded as AppleCredentials;
});
after(() => chain.cleanup());

function input(overrides: Partial<ApplePassInput> = {}): ApplePassInput {
  return {
    serialNumber: 'cus_01HZX4',
    authenticationToken: 'tok_0123456789abcdef0123',
    webServiceURL: 'https://loyalty.example.com/wallet',
    organizationName: 'Café Uno',
    description: 'Café Uno loyalty card',
    cardName: 'Coffee Club',
    testMode: false,
    balance: { label: 'Stamps', value: 3, changeMessage: 'You now have %@ stamps' },
    fields: [
      { key: 'level', label: 'Level', value: 'Gold', changeMessage: 'Your level is now %@' },
      { key: 'reward', label: 'Next reward', value: '7 of 10' },
      { key: 'member', label: 'Member', value: 'Ana' },
    ],
    barcodeMessage: 'SCAN-7Q4K9',
    ...overrides,
  };
}

const opensslVerify = (dir: string, manifest?: string) => verifyWithRoot(dir, chain.rootCertPath, manifest);

describe('buildApplePass', () => {
  let files: Map<string, Buffer>;
  let dir: string;
  let pass: Record<string, any>;
  before(async () => {
    ({ dir, files } = unzipPass(await buildApplePass(input({ testMode: true }), creds)));
    pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
  });

  test('the .pkpass unzips to pass.json, images, manifest.json and signature', () => {
    assert.deepEqual([...files.keys()].sort(), [
      'icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'logo@3x.png',
      'manifest.json', 'pass.json', 'signature',
    ]);
  });

  test('manifest.json lists the SHA-1 of every other file, and nothing else', () => {
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const expected = Object.fromEntries(
      [...files].filter(([name]) => name !== 'manifest.json' && name !== 'signature').map(([name, data]) => [name, sha1(data)]),
    );
    assert.deepEqual(manifest, expected);
  });

  test('pass.json carries identity, web service and the card data', () => {
    assert.equal(pass.formatVersion, 1);
    assert.equal(pass.passTypeIdentifier, chain.passTypeId);
    assert.equal(pass.teamIdentifier, chain.teamId);
    assert.equal(pass.serialNumber, 'cus_01HZX4');
    assert.equal(pass.authenticationToken, 'tok_0123456789abcdef0123');
    assert.equal(pass.webServiceURL, 'https://loyalty.example.com/wallet');
    assert.equal(pass.organizationName, 'Café Uno');
    assert.equal(pass.sharingProhibited, true);
    assert.equal(pass.backgroundColor, 'rgb(34, 40, 49)');
    assert.equal(pass.foregroundColor, 'rgb(255, 255, 255)');
    assert.equal(pass.labelColor, 'rgb(190, 196, 204)');
    assert.deepEqual(pass.barcodes, [{ format: 'PKBarcodeFormatQR', message: 'SCAN-7Q4K9', messageEncoding: 'iso-8859-1' }]);
  });

  test('the balance is the one primary field, announced with %@', () => {
    assert.deepEqual(pass.storeCard.primaryFields, [
      { key: 'balance', label: 'Stamps', value: 3, changeMessage: 'You now have %@ stamps' },
    ]);
    assert.match(pass.storeCard.primaryFields[0].changeMessage, /%@/);
  });

  test('level and progress fields: two secondary, the rest auxiliary', () => {
    assert.deepEqual(pass.storeCard.secondaryFields, [
      { key: 'level', label: 'Level', value: 'Gold', changeMessage: 'Your level is now %@' },
      { key: 'reward', label: 'Next reward', value: '7 of 10' },
    ]);
    assert.deepEqual(pass.storeCard.auxiliaryFields, [{ key: 'member', label: 'Member', value: 'Ana' }]);
  });

  test('test mode prefixes what the holder sees', () => {
    assert.equal(pass.logoText, 'TEST · Coffee Club');
    assert.equal(pass.description, 'TEST · Café Uno loyalty card');
  });

  test('openssl accepts the detached signature over manifest.json', () => {
    const result = opensslVerify(dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /Verification successful/);
  });

  test('openssl rejects the signature for a tampered manifest', () => {
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    manifest['pass.json'] = '0'.repeat(40);
    writeFileSync(join(dir, 'manifest.tampered.json'), JSON.stringify(manifest));
    const result = opensslVerify(dir, 'manifest.tampered.json');
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /verification failure|digest failure/i);
  });

  test('the signature carries the WWDR intermediate and a signing time', () => {
    const printed = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', join(dir, 'signature')], { encoding: 'utf8' });
    assert.match(printed, /subject: CN=Test Worldwide Developer Relations Certification Authority, OU=G4/);
    assert.match(printed, new RegExp(`subject: UID=${chain.passTypeId.replace(/\./g, '\\.')}, `));
    assert.match(printed, /signingTime/);
  });
});

describe('buildApplePass options', () => {
  test('live mode shows names without prefix; logoText overrides the card name; no trailing slash', async () => {
    const { files } = unzipPass(await buildApplePass(input({ logoText: 'Uno', webServiceURL: 'https://loyalty.example.com/wallet/' }), creds));
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    assert.equal(pass.logoText, 'Uno');
    assert.equal(pass.description, 'Café Uno loyalty card');
    assert.equal(pass.webServiceURL, 'https://loyalty.example.com/wallet');
  });

  test('design colours in hex become rgb(); the default images are drawn in them', async () => {
    const { files } = unzipPass(
      await buildApplePass(input({ colors: { background: '#0a7', foreground: 'rgb(1,2,3)', label: '#FFEEDD' } }), creds),
    );
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    assert.equal(pass.backgroundColor, 'rgb(0, 170, 119)');
    assert.equal(pass.foregroundColor, 'rgb(1, 2, 3)');
    assert.equal(pass.labelColor, 'rgb(255, 238, 221)');
    const drawn = defaultPassImages({ background: [0, 170, 119], foreground: [1, 2, 3] });
    for (const [name, png] of Object.entries({ ...drawn.icon, ...drawn.logo })) assert.ok(files.get(name)!.equals(png), name);
  });

  test('non-Latin-1 scan codes are encoded as UTF-8; back fields pass through', async () => {
    const { files } = unzipPass(
      await buildApplePass(input({ barcodeMessage: 'ЖЖ-1', backFields: [{ key: 'terms', label: 'Terms', value: 'One stamp per visit' }] }), creds),
    );
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    assert.equal(pass.barcodes[0].messageEncoding, 'utf-8');
    assert.deepEqual(pass.storeCard.backFields, [{ key: 'terms', label: 'Terms', value: 'One stamp per visit' }]);
  });

  const refused: Array<[string, Partial<ApplePassInput>, RegExp]> = [
    ['a short authentication token', { authenticationToken: '0123456789abcde' }, /authenticationToken must have at least 16/],
    ['more than four front fields', { fields: [1, 2, 3, 4, 5].map((n) => ({ key: `f${n}`, label: 'F', value: n })) }, /at most 4/],
    ['a balance changeMessage without %@', { balance: { label: 'Stamps', value: 1, changeMessage: 'Balance changed' } }, /balance\.changeMessage must contain %@/],
    ['a field changeMessage without %@', { fields: [{ key: 'level', label: 'Level', value: 'Gold', changeMessage: 'new level' }] }, /field "level"/],
    ['an empty scan code', { barcodeMessage: '' }, /barcodeMessage/],
    ['a non-URL web service', { webServiceURL: 'loyalty.example.com' }, /webServiceURL/],
    ['a colour Wallet cannot read', { colors: { background: 'teal' } }, /background colour "teal"/],
    ['a repeated field key', { fields: [{ key: 'balance', label: 'Again', value: 1 }] }, /balance/],
  ];
  for (const [name, change, message] of refused) {
    test(`refuses ${name}`, async () => {
      await assert.rejects(buildApplePass(input(change), creds), message);
    });
  }
});

describe('default images', () => {
  test('are real PNGs of the documented sizes (icon 29 pt, logo within 160×50 pt)', () => {
    const drawn = defaultPassImages({ background: [34, 40, 49], foreground: [255, 255, 255] });
    const sizes: Record<string, number> = {
      'icon.png': 29, 'icon@2x.png': 58, 'icon@3x.png': 87, 'logo.png': 50, 'logo@2x.png': 100, 'logo@3x.png': 150,
    };
    for (const [name, png] of Object.entries({ ...drawn.icon, ...drawn.logo })) {
      assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), name);
      let offset = 8;
      const idat: Buffer[] = [];
      let width = 0;
      let height = 0;
      while (offset < png.length) {
        const length = png.readUInt32BE(offset);
        const type = png.toString('latin1', offset + 4, offset + 8);
        const data = png.subarray(offset + 8, offset + 8 + length);
        assert.equal(png.readUInt32BE(offset + 8 + length), crc32(png.subarray(offset + 4, offset + 8 + length)), `${name} ${type} CRC`);
        if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
        if (type === 'IDAT') idat.push(data);
        offset += 12 + length;
      }
      assert.equal(width, sizes[name], name);
      assert.equal(height, sizes[name], name);
      assert.equal(inflateSync(Buffer.concat(idat)).length, (width * 4 + 1) * height, `${name} pixel data`);
    }
  });

  test('parseColor accepts Wallet and picker formats only', () => {
    assert.deepEqual(parseColor(' rgb( 0 , 128,255 ) '), { css: 'rgb(0, 128, 255)', hex: '#0080ff', rgb: [0, 128, 255] });
    assert.deepEqual(parseColor('#fff').rgb, [255, 255, 255]);
    assert.throws(() => parseColor('rgb(256, 0, 0)'), /is not #rgb, #rrggbb or rgb/);
    assert.throws(() => parseColor('rgb(1,2,3)garbage'), /is not #rgb, #rrggbb or rgb/);
  });
});
