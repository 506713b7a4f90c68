#!/usr/bin/env node
import { Command } from 'commander';
import { check } from '../lib/check.js';

const program = new Command('envcheck')
  .description('fail when required environment variables are unset')
  .argument('<names...>', 'variable names')
  .action((names) => {
    try {
      console.log(`ok: ${check(names)} variable(s) set`);
    } catch (err) {
      console.error(`error: ${err.message}`);
      process.exitCode = 1;
    }
  });

program.parse();
