// @ts-check
const { test, expect } = require('@playwright/test');
const fs = require('node:fs');
const path = require('node:path');

const html = fs.readFileSync(path.join(__dirname, '..', 'src', 'widget.html'), 'utf8');

test.beforeEach(async ({ page }) => {
  await page.setContent(html);
});

test('adds an item', async ({ page }) => {
  await page.getByPlaceholder('What needs doing?').fill('write release notes');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.locator('#items li')).toHaveText(['write release notes']);
});

test('clears the input after adding', async ({ page }) => {
  const input = page.getByPlaceholder('What needs doing?');
  await input.fill('ship it');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(input).toHaveValue('');
});
