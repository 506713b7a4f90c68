console.log('build: bundling src/index.js');
