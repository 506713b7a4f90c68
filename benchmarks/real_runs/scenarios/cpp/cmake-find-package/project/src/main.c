#include <stdio.h>
#include <curl/curl.h>
#include <zlib.h>

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    printf("feedsync using curl %s, zlib %s\n", curl_version(), zlibVersion());
    curl_global_cleanup();
    return 0;
}
