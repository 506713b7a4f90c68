#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Try to connect up to `attempts` times; a refused port is an expected outcome here. */
int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: probe ADDR PORT ATTEMPTS\n");
        return 2;
    }
    int attempts = atoi(argv[3]);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)atoi(argv[2]));
    inet_pton(AF_INET, argv[1], &sa.sin_addr);
    char *label = malloc(64);
    snprintf(label, 64, "%s:%s", argv[1], argv[2]);
    int up = 0;
    for (int i = 1; i <= attempts && !up; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
            up = 1;
        } else {
            printf("ERROR connect %s: %s (attempt %d/%d)%s\n", label, strerror(errno), i, attempts,
                   i < attempts ? ", retrying" : "");
        }
        close(fd);
    }
    printf("probe %s: %s\n", label, up ? "up" : "down (reported as status, not a failure)");
    free(label);
    return 0;
}
