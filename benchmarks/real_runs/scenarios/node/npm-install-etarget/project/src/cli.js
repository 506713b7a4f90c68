#!/usr/bin/env node
require('commander');
