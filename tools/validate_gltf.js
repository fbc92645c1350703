#!/usr/bin/env node
// Runs the Khronos glTF validator (npm package gltf-validator, installed by `npm ci --prefix tools`) on
// one .gltf or .glb file. Prints a one-line summary "errors N warnings N infos N hints N" followed by each
// error and warning; exits 0 when the file has no errors, 1 when it has errors, 2 when it cannot run.
// External resources are refused: Tressel's exports embed their buffers.
'use strict';
const fs = require('fs');
const path = require('path');

const file = process.argv[2];
if (!file) {
    console.error('usage: node validate_gltf.js <file.gltf|file.glb>');
    process.exit(2);
}
let validator;
try {
    validator = require('gltf-validator');
} catch (e) {
    console.error('gltf-validator is not installed: run `npm ci --prefix tools`');
    process.exit(2);
}

let bytes;
try {
    bytes = new Uint8Array(fs.readFileSync(file));
} catch (e) {
    console.error(`cannot read ${file}: ${e.message}`);
    process.exit(2);
}

validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri} is not allowed`)),
}).then((report) => {
    const i = report.issues;
    console.log(`errors ${i.numErrors} warnings ${i.numWarnings} infos ${i.numInfos} hints ${i.numHints}`);
    for (const m of i.messages) {
        if (m.severity <= 1) console.log(`${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
    process.exit(i.numErrors === 0 ? 0 : 1);
}, (error) => {
    console.error(`validation failed: ${error}`);
    process.exit(2);
});
